/**
 * AWS regions where EKS with Fargate can run, by partition. A closed list rather than a pattern, so a typo
 * such as "us-east1" fails at synth instead of at the first AWS call.
 * @see https://docs.aws.amazon.com/general/latest/gr/eks.html
 */
export const AWS_REGIONS = [
  "af-south-1",
  "ap-east-1",
  "ap-east-2",
  "ap-northeast-1",
  "ap-northeast-2",
  "ap-northeast-3",
  "ap-south-1",
  "ap-south-2",
  "ap-southeast-1",
  "ap-southeast-2",
  "ap-southeast-3",
  "ap-southeast-4",
  "ap-southeast-5",
  "ap-southeast-7",
  "ca-central-1",
  "ca-west-1",
  "cn-north-1",
  "cn-northwest-1",
  "eu-central-1",
  "eu-central-2",
  "eu-north-1",
  "eu-south-1",
  "eu-south-2",
  "eu-west-1",
  "eu-west-2",
  "eu-west-3",
  "il-central-1",
  "me-central-1",
  "me-south-1",
  "mx-central-1",
  "sa-east-1",
  "us-east-1",
  "us-east-2",
  "us-gov-east-1",
  "us-gov-west-1",
  "us-west-1",
  "us-west-2",
] as const;

/** What a region must be, for messages: the config's field and the planner's flag say it alike. */
export const AWS_REGION_EXPECTED = "must be an AWS region where EKS and Fargate run, such as us-east-1 or eu-west-1 (docs/configuration.md lists them)";

export function isAwsRegion(value: string): value is (typeof AWS_REGIONS)[number] {
  return (AWS_REGIONS as readonly string[]).includes(value);
}
