import type { ProfileView, TemplateView } from '../../../../common/contract';
import type { FreeTextMatch } from './send-model';

/** A checked send, waiting for the user's confirmation. */
export interface SendRequest {
  profile: ProfileView;
  /** The normalised 11 digits that are sent. */
  mobile: string;
  content: string;
  length: number;
  units: number;
  /** The approved template the text comes from (or matches, in free-text mode). */
  template: TemplateView | null;
  /** Free-text mode: what the text matched, for the confirmation's warning. */
  freeMatch: FreeTextMatch | null;
}

export type SendFormMode = 'template' | 'free';

export interface SendFormValues {
  profileId?: string;
  mode: SendFormMode;
  templateId?: string;
  values?: string[];
  freeText?: string;
  mobile?: string;
}
