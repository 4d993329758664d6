// The local template library (templates are registered in the provider's console; Callout keeps its own copy).
import { z } from 'zod';
import { id, none, op } from './define';
import type { IpcError } from './errors';

export interface TemplateView {
  id: string;
  name: string;
  content: string;
  approved: boolean;
  markerNames: string[];
  markerCount: number;
  createdAt: number;
  updatedAt: number;
}

export interface ImportResult {
  saved: number;
  /** Templates that were not saved, by their index in the input, and why. */
  errors: { index: number; error: IpcError }[];
}

export const templatesOps = {
  'templates.list': op<TemplateView[]>()(none),
  'templates.save': op<TemplateView>()(
    z
      .object({
        id: id.optional(),
        name: z.string().trim().max(60).optional(),
        content: z.string().min(1, 'template-empty').max(2000),
        approved: z.boolean().optional(),
        markerNames: z.array(z.string().max(40)).max(100).optional(),
      })
      .strict(),
  ),
  /** Many templates at once (JSON/CSV import), each checked; the valid ones are saved in one transaction. */
  'templates.import': op<ImportResult>()(
    z
      .object({
        templates: z
          .array(
            z
              .object({
                id: z.string().trim().max(64).optional(),
                name: z.string().trim().max(60).optional(),
                content: z.string().max(2000),
                approved: z.boolean().optional(),
              })
              .strict(),
          )
          .min(1, 'import-empty')
          .max(5000, 'import-too-many'),
      })
      .strict(),
  ),
  'templates.remove': op<{ removed: boolean }>()(z.object({ id }).strict()),
};
