/**
 * Devices bubblewrap's `--dev /dev` makes writable in every sandbox. The library's Linux monitor
 * reports every write *attempt* outside the writable set it knows, and it does not know these: bash
 * opens its terminal read-write at start-up (`check_dev_tty`), which under a PTY is the
 * `/dev/console` bwrap binds the terminal to, so every command "violated" the sandbox although
 * nothing was refused. The leading space anchors each pattern to the start of the reported path
 * (the library matches substrings of `deny <syscall> <path>`).
 */
export const PERMITTED_DEVICE_WRITES = [' /dev/console', ' /dev/pts/', ' /dev/ptmx', ' /dev/tty', ' /dev/null', ' /dev/zero', ' /dev/full', ' /dev/random', ' /dev/urandom', ' /dev/shm/', ' /dev/fd/', ' /dev/std']
