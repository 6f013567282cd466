// The hand-written project's host program (its presence marks the project).
