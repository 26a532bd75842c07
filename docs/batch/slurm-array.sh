#!/usr/bin/env bash
# Slurm job array: one task per capture of captures.txt (one path a line, on
# storage every node mounts), one core each. Submit with
#   sbatch --array=0-$(( $(wc -l < captures.txt) - 1 ))%200 docs/batch/slurm-array.sh
# (%200: at most 200 tasks at once). Each task writes results/INDEX-NAME.json.
#SBATCH --job-name=rudpscope-analyze
#SBATCH --cpus-per-task=1
#SBATCH --mem=512M
#SBATCH --time=00:15:00
#SBATCH --output=logs/%A_%a.log
set -euo pipefail
exec "$(dirname "$0")/analyze-one.sh" "$SLURM_ARRAY_TASK_ID" captures.txt results
