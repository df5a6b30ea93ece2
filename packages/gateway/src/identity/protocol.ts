// The request bodies of the Cognito operations this pool serves, as zod schemas. Members the
// client library also sends (ClientMetadata, UserContextData, ValidationData…) carry nothing we
// use, so objects are not strict: AWS itself ignores members it does not act on.
// Every string has Cognito's documented bound (or, for tokens it does not bound, one far above
// ours), and a failed bound stops the checks: no parser, pattern or message sees a longer one.
import { z } from 'zod';

/** A string of 1 to `max` characters (at most `max` for `min: 0`). */
const bounded = (max: number, min = 1) =>
  z
    .string()
    .max(max, { abort: true, message: `must be at most ${max} characters` })
    .min(min, { message: 'must not be empty' });

/** ClientId, Username (Cognito: 128). */
const name = bounded(128);
/** Passwords (Cognito: 256); the policy's minimum is checked by the operation. */
const password = bounded(256, 0);
/** Confirmation codes and the like (Cognito: 2048). */
const code = bounded(2048);
/** Our tokens are about 1,000 characters (id and access) or 64 (refresh). */
const token = bounded(8192);
/** A value of AuthParameters or ChallengeResponses: SRP_A is 768 hex digits, tokens as above. */
const parameters = z.record(bounded(128), bounded(8192, 0).nullish()).nullish();
/** Attribute names (Cognito: 32) and values (Cognito: 2048). */
const attributeName = bounded(32);
const attribute = z.object({ Name: attributeName, Value: bounded(2048, 0) });

export const signUpBody = z.object({
  ClientId: name,
  Username: name,
  Password: password,
  UserAttributes: z.array(attribute).max(50).nullish(),
});

export const confirmSignUpBody = z.object({
  ClientId: name,
  Username: name,
  ConfirmationCode: code,
});

export const usernameBody = z.object({ ClientId: name, Username: name });

export const initiateAuthBody = z.object({
  ClientId: name,
  AuthFlow: bounded(64),
  AuthParameters: parameters,
});

export const respondToAuthChallengeBody = z.object({
  ClientId: name,
  ChallengeName: bounded(64),
  ChallengeResponses: parameters,
  Session: bounded(2048, 0).nullish(),
});

export const confirmForgotPasswordBody = z.object({
  ClientId: name,
  Username: name,
  ConfirmationCode: code,
  Password: password,
});

export const accessTokenBody = z.object({ AccessToken: token });

export const changePasswordBody = accessTokenBody.extend({
  PreviousPassword: password,
  ProposedPassword: password,
});

export const updateUserAttributesBody = accessTokenBody.extend({
  UserAttributes: z.array(attribute).min(1).max(50),
});

export const deleteUserAttributesBody = accessTokenBody.extend({
  UserAttributeNames: z.array(attributeName).min(1).max(50),
});

export const attributeNameBody = accessTokenBody.extend({ AttributeName: attributeName });

export const verifyUserAttributeBody = attributeNameBody.extend({ Code: code });

export const revokeTokenBody = z.object({ Token: token, ClientId: name });

export const setUserMfaPreferenceBody = accessTokenBody.extend({
  SMSMfaSettings: z
    .object({ Enabled: z.boolean().nullish(), PreferredMfa: z.boolean().nullish() })
    .nullish(),
});

export const setUserSettingsBody = accessTokenBody.extend({
  MFAOptions: z
    .array(
      z.object({
        DeliveryMedium: bounded(32, 0).nullish(),
        AttributeName: attributeName.nullish(),
      }),
    )
    .max(10),
});
