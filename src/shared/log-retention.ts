import { z } from "zod";

/** The values CloudWatch Logs accepts for retention_in_days (0 would mean never expire, which we do not offer). */
const LOG_RETENTION_DAYS = [1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653] as const;

/** A log group's retention in days, as CloudWatch Logs takes it. */
export const logRetentionDays = z.union(
  LOG_RETENTION_DAYS.map((d) => z.literal(d)),
  { error: `must be one of the retention periods CloudWatch Logs accepts: ${LOG_RETENTION_DAYS.join(", ")}` },
);
