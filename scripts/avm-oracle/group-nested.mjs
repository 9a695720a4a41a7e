export async function nestedGroup() { throw new Error('todo'); }
