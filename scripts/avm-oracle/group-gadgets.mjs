export async function gadgetsGroup() { throw new Error('todo'); }
