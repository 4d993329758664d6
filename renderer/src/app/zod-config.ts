// Imported first by main.tsx. The renderer's CSP forbids eval; tell zod (used through the shared
// contract for client-side validation) not to probe for it, which would log a CSP violation.
import { z } from 'zod';

z.config({ jitless: true });
