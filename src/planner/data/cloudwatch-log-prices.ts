/**
 * CloudWatch Logs' prices for vended logs (VPC flow logs among them) in us-east-1, the first 10 TB a month:
 * billed by volume, so the plan names them rather than adding them to an hourly total.
 * @see https://aws.amazon.com/cloudwatch/pricing/ (Logs: vended logs ingestion; storage), as of 2026-11
 */
export const VENDED_LOG_PRICES = { ingestedPerGb: 0.5, storedPerGbMonth: 0.03, asOf: "2026-11" } as const;
