from adrguard.cli import console

console()
