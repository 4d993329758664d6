import { createRequire } from 'node:module';
import { isIPv4, isIPv6 } from 'node:net';
import Ajv, { type ValidateFunction } from 'ajv';
import draft6 from 'ajv/dist/refs/json-schema-draft-06.json';

/** har-schema's JSON schemas (draft-06, `$id`s like "log.json#" referring to each other) compiled with ajv 8. */
export function harValidator(): ValidateFunction {
  const schemas = createRequire(import.meta.url)('har-schema') as Record<string, object>;
  // strict: false — the schemas use keywords JSON Schema does not define ("min", "optional").
  const ajv = new Ajv({ strict: false, allErrors: true });
  ajv.addMetaSchema(draft6);
  ajv.addFormat('date-time', (s: string) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/.test(s) && !Number.isNaN(Date.parse(s)));
  ajv.addFormat('uri', (s: string) => URL.canParse(s));
  ajv.addFormat('ipv4', (s: string) => isIPv4(s));
  ajv.addFormat('ipv6', (s: string) => isIPv6(s));
  for (const schema of Object.values(schemas)) ajv.addSchema(schema);
  const validate = ajv.getSchema('har.json#');
  if (!validate) throw new Error('har-schema: no har.json# schema');
  return validate;
}
