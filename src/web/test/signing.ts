/* The /verify page's tests check PDFs sealed as the server seals them, made by the server's own fixtures. */
export { completedRequest, renderedOfferLetter } from '../../server/modules/signing/verify-fixtures';
