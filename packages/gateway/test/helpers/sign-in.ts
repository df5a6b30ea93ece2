// Signs in the way a client does: Cognito's USER_PASSWORD_AUTH against the gateway's user pool,
// over HTTP, returning the id token the API takes in its Authorization header.
import { request } from 'undici';

export async function signIn(
  baseUrl: string,
  clientId: string,
  phoneNumber: string,
  password: string,
): Promise<string> {
  const response = await request(`${baseUrl}/`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-amz-json-1.1',
      'x-amz-target': 'AWSCognitoIdentityProviderService.InitiateAuth',
    },
    body: JSON.stringify({
      AuthFlow: 'USER_PASSWORD_AUTH',
      ClientId: clientId,
      AuthParameters: { USERNAME: phoneNumber, PASSWORD: password },
    }),
  });
  const body = (await response.body.json()) as {
    AuthenticationResult?: { IdToken?: string };
    message?: string;
  };
  const token = body.AuthenticationResult?.IdToken;
  if (!token)
    throw new Error(`Sign-in of ${phoneNumber} failed (${response.statusCode}): ${body.message}`);
  return token;
}
