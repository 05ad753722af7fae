import "server-only";
import * as z from "zod";
import { hashPassword, verifyPassword } from "@/lib/crypto/password";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { Prisma } from "@/lib/generated/prisma/client";

/** What the app may know about a user: never the password hash. */
export interface UserView {
  id: string;
  email: string | null;
  name: string | null;
  image: string | null;
}

const select = { id: true, email: true, name: true, image: true } as const;

/** Sign-up input: email, a password of at least 10 characters, a display name. */
export const signUpSchema = z.object({
  name: z.string().trim().min(1, "Enter your name").max(100, "At most 100 characters"),
  email: z.string().trim().toLowerCase().max(254).pipe(z.email("Enter a valid email address")),
  password: z.string().min(10, "Use at least 10 characters").max(200, "At most 200 characters"),
});
export type SignUpInput = z.infer<typeof signUpSchema>;

/** Emails are stored and compared lower-cased and trimmed. */
export const normaliseEmail = (email: string): string => email.trim().toLowerCase();

/** Creates a password account; a taken email is AppError("conflict"). */
export async function createUser(input: SignUpInput): Promise<UserView> {
  const data = signUpSchema.parse(input);
  const passwordHash = await hashPassword(data.password);
  try {
    return await db().user.create({ data: { email: data.email, name: data.name, passwordHash }, select });
  } catch (err) {
    if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002") {
      throw new AppError("conflict", "An account with this email already exists. Sign in instead.");
    }
    throw err;
  }
}

/** The user with this email, or null. */
export async function findUserByEmail(email: string): Promise<UserView | null> {
  return db().user.findUnique({ where: { email: normaliseEmail(email) }, select });
}

/** The user with this id, or null (a session whose user was deleted resolves to null). */
export async function findUserById(id: string): Promise<UserView | null> {
  return db().user.findUnique({ where: { id }, select });
}

/**
 * Checks an email/password pair in constant-ish time (unknown emails still pay one argon2 verify).
 * Returns the user or null; OAuth-only accounts (no password) never match.
 */
export async function verifyCredentials(email: string, password: string): Promise<UserView | null> {
  const row = await db().user.findUnique({
    where: { email: normaliseEmail(email) },
    select: { ...select, passwordHash: true },
  });
  const ok = await verifyPassword(row?.passwordHash, password);
  if (!row || !ok) return null;
  return { id: row.id, email: row.email, name: row.name, image: row.image };
}

/** True for an account that signs in with a password (OAuth-only accounts have none to change). */
export async function hasPasswordAccount(userId: string): Promise<boolean> {
  return (await db().user.count({ where: { id: userId, passwordHash: { not: null } } })) === 1;
}

/** The user's session version (lib/auth/session-version.ts), or null when the user no longer exists. */
export async function sessionVersionOf(userId: string): Promise<number | null> {
  const row = await db().user.findUnique({ where: { id: userId }, select: { sessionVersion: true } });
  return row?.sessionVersion ?? null;
}

/** Bumps the user's session version: every session cookie made before stops working. Returns the new one (null: no such user). */
export async function bumpSessionVersion(userId: string): Promise<number | null> {
  const rows = await db().$queryRaw<{ sessionVersion: number }[]>`
    UPDATE "User" SET "sessionVersion" = "sessionVersion" + 1, "updatedAt" = now() WHERE id = ${userId} RETURNING "sessionVersion"`;
  return rows[0]?.sessionVersion ?? null;
}

/** Password change input: the current password and a new one of at least 10 characters. */
export const passwordChangeSchema = z.object({
  current: z.string().min(1, "Enter your current password").max(200),
  next: z.string().min(10, "Use at least 10 characters").max(200, "At most 200 characters"),
});

/**
 * Changes a password account's password after checking the current one, and bumps the session
 * version in the same statement: every session (this one included) must sign in again. Refuses a
 * wrong current password (AppError "bad_request", details.field "current") and OAuth-only accounts.
 * Use lib/auth/session-version.ts `changePassword`, which also tells every process.
 */
export async function updatePassword(userId: string, input: z.input<typeof passwordChangeSchema>): Promise<void> {
  const { current, next } = passwordChangeSchema.parse(input);
  const row = await db().user.findUnique({ where: { id: userId }, select: { passwordHash: true } });
  if (!row?.passwordHash || !(await verifyPassword(row.passwordHash, current))) {
    throw new AppError("bad_request", "The current password is not correct.", { field: "current" });
  }
  const passwordHash = await hashPassword(next);
  await db().$executeRaw`
    UPDATE "User" SET "passwordHash" = ${passwordHash}, "sessionVersion" = "sessionVersion" + 1, "updatedAt" = now() WHERE id = ${userId}`;
}
