import { certificate } from './certificate.ts';
import { invoice } from './invoice.ts';
import { nda } from './nda.ts';
import { offerLetter } from './offer-letter.ts';
import { patientConsent } from './patient-consent.ts';
import { quotation } from './quotation.ts';
import { rentalAgreement } from './rental-agreement.ts';
import type { TStarterFormatInput } from './shared.ts';

/*
 * Starter formats: documents a business really sends, laid out and with typed placeholders, so a
 * newcomer's first PDF is a change of a few words away. They open in the builder as unsaved drafts.
 *
 * As written, before the format schemas parse them (index.ts): the gallery's cards need only their
 * names and fields, and so load no schema code.
 */
export const STARTER_CATALOGUE: readonly TStarterFormatInput[] = [offerLetter, nda, invoice, quotation, rentalAgreement, patientConsent, certificate];
