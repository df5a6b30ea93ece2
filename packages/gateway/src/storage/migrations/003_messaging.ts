// Send jobs, their recipients and opt-outs: written by the messaging module.
export default `
SELECT 1;
`;
