// Route schemas are zod schemas (the SDK's), through fastify-type-provider-zod: this compiler
// turns a failed parse into the API's 400, naming the field and never quoting the input, and the
// provider's serializer checks every answer against its declared schema.
import type { FastifySchemaCompiler } from 'fastify';
import type { z } from 'zod';
import { fromZodError } from './errors.js';

const PARTS: Record<string, string> = {
  body: 'body',
  querystring: 'query',
  params: 'path',
  headers: 'headers',
};

export const validatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema, httpPart }) =>
  (data) => {
    const result = schema.safeParse(data);
    if (result.success) return { value: result.data };
    // Fastify passes an Error through to the error handler as it is: status, code and field.
    return { error: fromZodError(result.error, PARTS[httpPart ?? 'body'] ?? 'body') };
  };

export { serializerCompiler } from 'fastify-type-provider-zod';
