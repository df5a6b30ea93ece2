// Cognito's error shape, `{ __type, message }` with status 400 and `x-amzn-errortype`, which
// amazon-cognito-identity-js turns into `err.code` and `err.message`.

export type CognitoErrorType =
  | 'NotAuthorizedException'
  | 'UsernameExistsException'
  | 'AliasExistsException'
  | 'CodeMismatchException'
  | 'ExpiredCodeException'
  | 'UserNotConfirmedException'
  | 'UserNotFoundException'
  | 'InvalidPasswordException'
  | 'InvalidParameterException'
  | 'LimitExceededException'
  | 'ResourceNotFoundException'
  | 'SerializationException'
  | 'UnknownOperationException'
  | 'InternalErrorException';

export class CognitoError extends Error {
  constructor(
    readonly type: CognitoErrorType,
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

export const incorrectPassword = () =>
  new CognitoError('NotAuthorizedException', 'Incorrect username or password.');

export const invalidParameter = (message: string) =>
  new CognitoError('InvalidParameterException', message);

export const userNotFound = () => new CognitoError('UserNotFoundException', 'User does not exist.');
