// Which operation a request is, read with a dialect whose operations share an address: the one it
// names most precisely (the path's query, the fixed fields it carries), whatever their order.
import { describe, expect, it } from 'vitest';
import { checkDialect, operationOfRequest, SPEC_DIALECT, type Dialect, type DialectInput } from '../../../common/dialects';

function asking(request: DialectInput['request']): Dialect {
  const r = checkDialect({ ...(SPEC_DIALECT as DialectInput), id: undefined, name: 'Shared address', request });
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  return r.dialect;
}

const BASE = 'https://api.example.com/gw';

describe('operations at one address', () => {
  it('told apart by the query of their path: /api for a send, /api?action=query for a status', () => {
    const d = asking({ path: '/api', status: { path: '/api?action=query' } });
    expect(operationOfRequest(d, new URL(`${BASE}/api?action=query&smsid=1`), BASE)).toBe('status');
    expect(operationOfRequest(d, new URL(`${BASE}/api`), BASE)).toBe('send');
  });

  it('told apart by their fixed fields: a balance with {what: balance} is not the send without any', () => {
    const d = asking({ path: '/api', body: 'form', balance: { extra: { what: 'balance' } } });
    expect(operationOfRequest(d, new URL(`${BASE}/api`), BASE, { account: 'a', what: 'balance' })).toBe('balance');
    expect(operationOfRequest(d, new URL(`${BASE}/api`), BASE, { account: 'a', mobile: '1', content: 'x' })).toBe('send');
  });

  it('a query field repeated still names its operation', () => {
    const d = asking({ path: '/api?m=send', status: { path: '/api?m=status' }, balance: { path: '/api?m=balance' } });
    expect(operationOfRequest(d, new URL(`${BASE}/api?m=x&m=status`), BASE)).toBe('status');
  });
});
