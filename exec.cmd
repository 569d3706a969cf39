@rem Windows' cmd.exe has no `exec`: npm start's `exec node ...` (which lets signals sent to npm
@rem reach node on POSIX shells) runs the rest of the line here instead. See decisions/017.
@%*
