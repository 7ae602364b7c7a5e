import { z } from 'zod';

// The one error shape of every non-2xx answer (docs/api.md).
export const ErrorBody = z
  .object({
    message: z.string(),
    errors: z.array(z.string()),
    fields: z.record(z.string(), z.string()),
  })
  .meta({ id: 'Error' });
export type ErrorBody = z.infer<typeof ErrorBody>;

export const MessageBody = z.object({ message: z.string() }).meta({ id: 'Message' });
