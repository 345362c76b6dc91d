/** The invocation failed; thrown out of the handler so `aws_lambda_invocation` fails the apply. */
export class CorednsFixError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CorednsFixError";
  }
}
