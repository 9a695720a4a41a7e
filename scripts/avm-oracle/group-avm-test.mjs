export async function avmTestGroup() { throw new Error('todo'); }
