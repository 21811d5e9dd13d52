// Run as a separate process by tests: opens the database of DATA_DIR and reports what happened.
import { closeDatabase, getDatabase } from "@/lib/db";

try {
  const database = await getDatabase();
  await database.prisma.$queryRaw`SELECT 1`;
  console.log(JSON.stringify({ opened: true }));
  await closeDatabase();
} catch (error) {
  console.log(JSON.stringify({ opened: false, name: (error as Error).name, message: (error as Error).message }));
}
