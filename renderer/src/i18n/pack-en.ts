// The English base pack, one chunk loaded when the console speaks it (packs.ts): the shell's
// dictionary, the shared message catalog and Ant Design's own texts. Each feature's texts come with
// its screen (features/<feature>/locales/en.json).
// Ant Design's ES module build of its texts (antd/locale/* is CommonJS: a second copy of them, and
// of the pickers' and pagination's, next to the one antd itself imports for its defaults).
import antd from 'antd/es/locale/en_US';
import msg from '../../../common/messages/en.json';
import shell from './en.json';

export default { translation: shell, msg, antd };
