export async function bytecodeGroup() { throw new Error('todo'); }
