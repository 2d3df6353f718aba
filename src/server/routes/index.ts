/** Every API route, in the order the OpenAPI document lists them. */
import type { ApiRoute } from '../route.js';
import { annotationsCreateRoute, annotationsExportRoute } from './annotations.js';
import { auditsCreateRoute } from './audits-create.js';
import { auditsEventsRoute } from './audits-events.js';
import { auditsGetRoute, auditsListRoute } from './audits-get.js';
import { citationsCheckRoute } from './citations-check.js';
import { comparisonsNextRoute } from './comparisons.js';
import { healthRoute } from './health.js';
import { openApiRoute } from './openapi.js';
import { searchRoute } from './search.js';
import { verifyBatchRoute } from './verify-batch.js';
import { verifyRoute } from './verify.js';

export const API_ROUTES: ApiRoute[] = [
  verifyRoute,
  verifyBatchRoute,
  citationsCheckRoute,
  auditsCreateRoute,
  auditsListRoute,
  auditsGetRoute,
  auditsEventsRoute,
  searchRoute,
  comparisonsNextRoute,
  annotationsCreateRoute,
  annotationsExportRoute,
  healthRoute,
];
API_ROUTES.push(openApiRoute(() => API_ROUTES));
