// A form's error that no field shows (FormErrors.message), announced as an alert; nothing while there is none.
import { Text } from '@mantine/core';

export function FormMessage({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <Text size="sm" c="red" role="alert">
      {message}
    </Text>
  );
}
