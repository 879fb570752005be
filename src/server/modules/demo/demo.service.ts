import { DEMO_FORMAT, type TDemoRenderBody } from '../../../contract/demo.ts';
import { ZFormatInput } from '../../../contract/formats.ts';
import { renderPdf } from '../../../render/index.ts';

const demoFormat = ZFormatInput.parse(DEMO_FORMAT);

/** Renders the landing page's sample offer letter; stores nothing and touches no database. */
export function createDemoService() {
  return {
    render(body: TDemoRenderBody, now = new Date()): Uint8Array {
      return renderPdf({
        format: { content: demoFormat.content, placeholders: demoFormat.placeholders },
        data: body,
        assets: {},
        meta: { title: `Offer letter for ${body.client_name}`, creationDate: now },
      }).pdf;
    },
  };
}
export type TDemoService = ReturnType<typeof createDemoService>;
