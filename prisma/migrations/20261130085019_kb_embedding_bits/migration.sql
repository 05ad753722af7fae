-- AlterTable
ALTER TABLE "KbChunk" ADD COLUMN     "embeddingBits" bit varying;

-- Backfill: one bit per dimension, 1 where the component is positive.
UPDATE "KbChunk" c SET "embeddingBits" = (
  SELECT string_agg(CASE WHEN x > 0 THEN '1' ELSE '0' END, '' ORDER BY i)
  FROM unnest(c.embedding) WITH ORDINALITY AS z(x, i)
)::bit varying
WHERE c.embedding IS NOT NULL AND cardinality(c.embedding) > 0;
