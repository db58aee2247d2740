interface MessageType<T> {
  encode(message: T): { finish(): Uint8Array };
  decode(input: Uint8Array): T;
}

/**
 * A message as the caller receives it, after the wire (unset fields as their zero values, Structs normalised):
 * what an event shows is then exactly what an RPC answers.
 */
export function asSent<T>(type: MessageType<T>, message: T): T {
  return type.decode(type.encode(message).finish());
}
