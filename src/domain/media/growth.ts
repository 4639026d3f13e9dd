// The collector that keeps a long upload's memory bounded lives on the ground floor (src/lib/growth.ts), shared
// with the video uploads to the networks (src/platforms/plumbing/coalesce.ts).
export { GrowthCollector } from "../../lib/growth.ts";
