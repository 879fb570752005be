// The demo module's front door: the landing page's sample PDF.
export { demoRoutes } from './demo.routes.ts';
export { createDemoService } from './demo.service.ts';
