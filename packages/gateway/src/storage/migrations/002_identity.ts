// Identity accounts (Cognito-compatible user pool): written by the identity module.
export default `
SELECT 1;
`;
