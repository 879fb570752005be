-- Counts up to p_wanted generations of one owner in one period, never past p_limit, and answers
-- how many it counted. The row is locked before it is read, so concurrent callers (other
-- statements, other processes) each see the count the previous one left.
CREATE FUNCTION "count_generations"(p_owner text, p_period text, p_wanted integer, p_limit integer) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  used integer;
  granted integer;
BEGIN
  INSERT INTO "usage_counters" ("owner_id", "period", "generations") VALUES (p_owner, p_period, 0) ON CONFLICT DO NOTHING;
  SELECT "generations" INTO used FROM "usage_counters" WHERE "owner_id" = p_owner AND "period" = p_period FOR UPDATE;
  granted := least(p_wanted, greatest(0, p_limit - used));
  IF granted > 0 THEN
    UPDATE "usage_counters" SET "generations" = "generations" + granted WHERE "owner_id" = p_owner AND "period" = p_period;
  END IF;
  RETURN granted;
END
$$;
