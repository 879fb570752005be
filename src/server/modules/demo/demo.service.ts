import { DEMO_FORMAT, type TDemoRenderBody } from '../../../contract/demo.ts';
import { ZFormatInput } from '../../../contract/formats.ts';
import type { TPdfService } from '../pdf/index.ts';

const demoFormat = ZFormatInput.parse(DEMO_FORMAT);

/** Renders the landing page's sample offer letter; stores nothing. */
export function createDemoService(deps: { pdf: TPdfService }) {
  return {
    /** Renders like any document, on a render thread; each visitor's IP takes its own turns. */
    async render(body: TDemoRenderBody, visitorIp: string, now = new Date()): Promise<Uint8Array> {
      const { pdf } = await deps.pdf.render({
        ownerId: `demo:${visitorIp}`,
        format: { content: demoFormat.content, placeholders: demoFormat.placeholders },
        data: body,
        title: `Offer letter for ${body.client_name}`,
        creationDate: now,
      });
      return pdf;
    },
  };
}
export type TDemoService = ReturnType<typeof createDemoService>;
