#!/bin/bash
# slurm-single-node.sh start|stop STATE_DIR
# A real single-node Slurm cluster on this machine, for `treedd --launcher srun` (issue 10):
# munged, slurmctld and slurmd from Debian's munge and slurm-wlm packages, every file (key,
# config, sockets, spool, logs) under STATE_DIR, nothing in /etc touched. `start` prints the
# line to export (SLURM_CONF=...) and waits until the node accepts jobs; `stop` kills the
# daemons. Needs root (slurmd runs jobs as their users).
set -eu
cmd=${1:?usage: $0 start|stop STATE_DIR}
state=$(mkdir -p "${2:?usage: $0 start|stop STATE_DIR}" && cd "$2" && pwd)
conf=$state/slurm.conf
case $cmd in
stop)
    for pid in "$state"/*.pid; do
        [ -f "$pid" ] && kill "$(cat "$pid")" 2>/dev/null || true
    done
    exit 0
    ;;
start) ;;
*) echo "usage: $0 start|stop STATE_DIR" >&2; exit 2 ;;
esac
for tool in munged slurmctld slurmd srun; do
    command -v "$tool" >/dev/null || { echo "$tool missing: apt-get install munge slurm-wlm" >&2; exit 3; }
done
host=$(hostname -s)
cpus=$(nproc)
mkdir -p "$state/spool" "$state/ctld" "$state/munge"
chmod 700 "$state/munge"
[ -f "$state/munge/munge.key" ] || { dd if=/dev/urandom of="$state/munge/munge.key" bs=1024 count=1 2>/dev/null; chmod 400 "$state/munge/munge.key"; }
munged --force --key-file="$state/munge/munge.key" --socket="$state/munge/munge.socket" \
    --pid-file="$state/munged.pid" --log-file="$state/munged.log" --seed-file="$state/munge/seed"
cat > "$conf" <<CONF
ClusterName=treedd
SlurmctldHost=$host
AuthType=auth/munge
AuthInfo=socket=$state/munge/munge.socket
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
SlurmctldPort=${SLURMCTLD_PORT:-16817}
SlurmdPort=${SLURMD_PORT:-16818}
StateSaveLocation=$state/ctld
SlurmdSpoolDir=$state/spool
SlurmctldPidFile=$state/slurmctld.pid
SlurmdPidFile=$state/slurmd.pid
SlurmctldLogFile=$state/slurmctld.log
SlurmdLogFile=$state/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/builtin
NodeName=$host CPUs=$cpus State=UNKNOWN
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:8
CONF
export SLURM_CONF=$conf
slurmctld -f "$conf"
slurmd -f "$conf"
for _ in $(seq 100); do
    if sinfo -h -o %t 2>/dev/null | grep -qx idle; then
        echo "export SLURM_CONF=$conf"
        exit 0
    fi
    sleep 0.2
done
echo "slurm did not come up; see $state/*.log" >&2
exit 1
