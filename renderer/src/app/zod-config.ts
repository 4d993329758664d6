// Imported first by the modules that validate with the shared contract (the profiles' forms), so
// that zod stays out of the console's first chunk. The renderer's CSP forbids eval; tell zod (used through the shared
// contract for client-side validation) not to probe for it, which would log a CSP violation.
import { z } from 'zod';

z.config({ jitless: true });
