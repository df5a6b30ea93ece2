// The request bodies of the Cognito operations this pool serves, as zod schemas. Members the
// client library also sends (ClientMetadata, UserContextData, ValidationData…) carry nothing we
// use, so objects are not strict: AWS itself ignores members it does not act on.
import { z } from 'zod';

const text = z.string().min(1);
const attribute = z.object({ Name: text, Value: z.string() });

export const signUpBody = z.object({
  ClientId: text,
  Username: text,
  Password: z.string(),
  UserAttributes: z.array(attribute).max(50).nullish(),
});

export const confirmSignUpBody = z.object({
  ClientId: text,
  Username: text,
  ConfirmationCode: text,
});

export const usernameBody = z.object({ ClientId: text, Username: text });

export const initiateAuthBody = z.object({
  ClientId: text,
  AuthFlow: text,
  AuthParameters: z.record(z.string(), z.string().nullish()).nullish(),
});

export const respondToAuthChallengeBody = z.object({
  ClientId: text,
  ChallengeName: text,
  ChallengeResponses: z.record(z.string(), z.string().nullish()).nullish(),
  Session: z.string().nullish(),
});

export const confirmForgotPasswordBody = z.object({
  ClientId: text,
  Username: text,
  ConfirmationCode: text,
  Password: z.string(),
});

export const accessTokenBody = z.object({ AccessToken: text });

export const changePasswordBody = accessTokenBody.extend({
  PreviousPassword: z.string(),
  ProposedPassword: z.string(),
});

export const updateUserAttributesBody = accessTokenBody.extend({
  UserAttributes: z.array(attribute).min(1).max(50),
});

export const deleteUserAttributesBody = accessTokenBody.extend({
  UserAttributeNames: z.array(text).min(1).max(50),
});

export const attributeNameBody = accessTokenBody.extend({ AttributeName: text });

export const verifyUserAttributeBody = attributeNameBody.extend({ Code: text });

export const revokeTokenBody = z.object({ Token: text, ClientId: text });

export const setUserMfaPreferenceBody = accessTokenBody.extend({
  SMSMfaSettings: z
    .object({ Enabled: z.boolean().nullish(), PreferredMfa: z.boolean().nullish() })
    .nullish(),
});

export const setUserSettingsBody = accessTokenBody.extend({
  MFAOptions: z
    .array(z.object({ DeliveryMedium: z.string().nullish(), AttributeName: z.string().nullish() }))
    .max(10),
});
