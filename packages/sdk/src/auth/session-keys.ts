// The key prefixes this SDK writes into a session store: the identity library's and our own. A
// module of its own, so a page that only asks "is a session kept here?" loads nothing else.
export const SESSION_KEY_PREFIXES = ['CognitoIdentityServiceProvider.', 'blockcatch.'] as const;
