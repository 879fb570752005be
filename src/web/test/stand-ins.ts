/** The loopback stand-ins for services outside Formwork that web tests point the server at. */
export { startSmtpStandIn, type TSmtpStandIn } from '../../server/test/smtp-stand-in';
export { startStripeStandIn, type TStripeStandIn } from '../../server/test/gateway-stand-ins/stripe-stand-in';
