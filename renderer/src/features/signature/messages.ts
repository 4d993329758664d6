// What main reports about a signature (a diagnosis' evidence and notes, why a paste or a vector file
// cannot be read, what was assumed, why the clock has no reading) is a code with parameters. Its
// words are in the shared message catalog (the 'msg' namespace, sections named in
// common/signature-types); they are said here in the user's language. Protocol tokens and the
// values in the parameters (hosts, dates, header names) stay as they are.
import type { TFunction } from 'i18next';
import { codedArgs, MESSAGES_NS } from '../../../../common/messages';
import type { ClockProbeError, DiagnosisText, ParseProblem, ParseWarning, VectorCheckError, VectorProblemCode } from '../../../../common/signature-types';

type Section = 'diagnosis' | 'parse.problem' | 'parse.warning' | 'vectors.problem' | 'vectors.check' | 'clock';

/** Keys and parameters come from main's codes (test/unit/signing/catalog.test.ts checks them all), so they are not typed here. */
function say(t: TFunction, section: Section, text: { code: string; params?: object }): string {
  const [key, options] = codedArgs(section, text);
  return (t as unknown as (key: string, options: object) => string)(key, { ...options, ns: MESSAGES_NS });
}

export const sayDiagnosis = (t: TFunction, text: DiagnosisText): string => say(t, 'diagnosis', text);
export const sayParseProblem = (t: TFunction, problem: ParseProblem): string => say(t, 'parse.problem', problem);
export const sayParseWarning = (t: TFunction, warning: ParseWarning): string => say(t, 'parse.warning', warning);
export const sayVectorProblem = (t: TFunction, code: VectorProblemCode | string): string => say(t, 'vectors.problem', { code });
export const sayVectorCheck = (t: TFunction, error: VectorCheckError): string => say(t, 'vectors.check', error);
export const sayClockError = (t: TFunction, error: ClockProbeError): string => say(t, 'clock', error);
