import { ZFormatContent } from '../format-content.ts';
import { ZPlaceholderList } from '../placeholders.ts';
import { certificate } from './certificate.ts';
import { invoice } from './invoice.ts';
import { nda } from './nda.ts';
import { offerLetter } from './offer-letter.ts';
import { patientConsent } from './patient-consent.ts';
import { quotation } from './quotation.ts';
import { rentalAgreement } from './rental-agreement.ts';
import type { TStarterFormat } from './shared.ts';

export type { TStarterFormat } from './shared.ts';

/*
 * Starter formats: documents a business really sends, laid out and with typed placeholders, so a
 * newcomer's first PDF is a change of a few words away. They open in the builder as unsaved drafts.
 */

/** Parsed with the schemas every saved format passes, so a starter is exactly what a save would store. */
export const STARTER_FORMATS: readonly TStarterFormat[] = [offerLetter, nda, invoice, quotation, rentalAgreement, patientConsent, certificate].map(
  (starter) => ({ ...starter, content: ZFormatContent.parse(starter.content), placeholders: ZPlaceholderList.parse(starter.placeholders) }),
);
