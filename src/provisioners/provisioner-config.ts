import { z } from "zod";

// Placeholder until the provisioners issue: typed NodePools and EC2NodeClasses.
export const nodeClassesSchema = z.array(z.unknown()).default([]);
export const nodePoolsSchema = z.array(z.unknown()).default([]);
export function checkProvisioners(_input: { nodeClasses: unknown; nodePools: unknown; region: string | undefined }, _ctx: z.RefinementCtx): void {}
