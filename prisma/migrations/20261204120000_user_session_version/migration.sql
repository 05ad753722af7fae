-- AlterTable: a session version per user. Sign-out and a password change bump it, and a session
-- cookie made with an older one is refused (lib/auth.ts).
ALTER TABLE "User" ADD COLUMN     "sessionVersion" INTEGER NOT NULL DEFAULT 0;
