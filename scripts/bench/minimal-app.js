// The floor: the smallest cdktf app, one aws resource, deep imports (what any cdktf app pays).

const { App, TerraformStack } = require("cdktf");
const { AwsProvider } = require("@cdktf/provider-aws/lib/provider");
const { S3Bucket } = require("@cdktf/provider-aws/lib/s3-bucket");

const app = new App();
const stack = new TerraformStack(app, "minimal");
new AwsProvider(stack, "aws", { region: "us-east-1" });
new S3Bucket(stack, "bucket", { bucket: "minimal-bench" });
app.synth();
