"""Lab 5, wrong: plays castling as a king's move: its rook stays where it stood"""

from actors.study.labs import JournalEntries, LabSupervisor, Resync


class Supervisor(LabSupervisor):
    def rebuild(self, journal: JournalEntries) -> dict[str, Resync]:
        # square -> [name, code, has moved, promotions], from the start of the game
        board = {seat.square: [seat.name, seat.code, seat.has_moved, 0] for seat in self.start_seats()}
        for entry in journal.entries:
            move = entry.move
            # the mistake: castling moves the king alone (move.rook never looked at)
            piece = board.pop(move.origin)
            board.pop(move.victim if move.victim >= 0 else move.target, None)  # whatever it takes
            piece[2] = True
            if move.promotion:
                piece[1] = (piece[1] & 8) | move.promotion  # same colour, the new kind
                piece[3] = 1
            board[move.target] = piece
        return {name: Resync(square, moved, code, promotions=promoted)
                for square, (name, code, moved, promoted) in board.items()}
