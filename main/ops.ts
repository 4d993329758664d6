// The type of one feature's slice of the handler table (handlers.ts merges them): an operation for
// each channel its part of the contract declares (common/contract/<feature>.ts), no more, no less.
import type { Channel, OutputOf, ParsedInputOf } from '../common/contract';

export type Ops<Declared> = { [C in keyof Declared & Channel]: (input: ParsedInputOf<C>) => Promise<OutputOf<C>> };
