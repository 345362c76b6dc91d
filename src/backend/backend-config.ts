import { z } from "zod";
import { strictObject } from "../config/schema-helpers";

/** Where each stack keeps its Terraform state. */
export const backendSchema = strictObject({
  type: z.enum(["local"]).default("local"),
}).prefault({});

export type BackendConfig = z.output<typeof backendSchema>;
