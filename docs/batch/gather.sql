-- One row per capture, connection and direction from the per-capture JSON
-- of `rudpscope-cli analyze --json` (docs/batch/analyze-one.sh).
CREATE OR REPLACE TABLE directions AS
WITH captures AS (
  SELECT filename, capture, unnest(connections) AS c
  FROM read_json_auto(getvariable('json_glob'), filename = true, union_by_name = true,
                      maximum_object_size = 268435456)
), dirs AS (
  SELECT filename, capture.path AS capture, capture.packets AS capture_packets,
         c.id AS conn, c.protocol, c.client, c.server, c.vantage, 'client_to_server' AS dir,
         c.directions.client_to_server AS d
  FROM captures
  UNION ALL
  SELECT filename, capture.path, capture.packets, c.id, c.protocol, c.client, c.server, c.vantage,
         'server_to_client', c.directions.server_to_client
  FROM captures
)
SELECT filename, capture, capture_packets, conn, protocol, client, server, vantage, dir,
       d.packets, d.data_packets, d.retransmissions, d.retransmissions_fast,
       d.retransmissions_timeout, d.lost, d.mean_loss_burst,
       d.rtt_ms.p50 AS rtt_p50_ms, d.rtt_ms.p99 AS rtt_p99_ms,
       d.response_ms.p99 AS response_p99_ms, d.response_ms.share_above."300" AS response_over_300,
       len(d.stalls) AS stalls, list_max([s.duration_ms FOR s IN d.stalls]) AS longest_stall_ms
FROM dirs;
