// Every MCP tool, in the order an agent meets them. A test checks this list against the specification's tool
// names and fails for any tool whose capability (its /v1 route) exists but whose tool does not.
import type { Tool } from "../tool.ts";
import { catalogTools } from "./catalog.ts";
import { engagementTools } from "./engagement.ts";
import { insightTools } from "./insights.ts";
import { mediaTools } from "./media.ts";
import { newsletterTools } from "./newsletters.ts";
import { notificationTools } from "./notifications.ts";
import { postTools } from "./posts.ts";
import { reportTools } from "./reports.ts";
import { reviewLinkTools } from "./review-links.ts";
import { targetTools } from "./targets.ts";
import { templateTools } from "./templates.ts";

export const tools: Tool[] = [
  ...catalogTools,
  ...templateTools,
  ...mediaTools,
  ...postTools,
  ...targetTools,
  ...reviewLinkTools,
  ...engagementTools,
  ...insightTools,
  ...reportTools,
  ...notificationTools,
  ...newsletterTools,
];
