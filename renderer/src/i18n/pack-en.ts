// The English base pack, one chunk loaded when the console speaks it (packs.ts): the shell's
// dictionary, the shared message catalog and Ant Design's own texts. Each feature's texts come with
// its screen (features/<feature>/locales/en.json).
import antd from 'antd/locale/en_US';
import msg from '../../../common/messages/en.json';
import shell from './en.json';

export default { translation: shell, msg, antd };
