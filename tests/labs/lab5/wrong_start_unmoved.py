"""Lab 5, wrong: every piece starts unmoved, whatever the start's castling rights say"""

from actors.study.labs import JournalEntries, LabSupervisor, Resync


class Supervisor(LabSupervisor):
    def rebuild(self, journal: JournalEntries) -> dict[str, Resync]:
        # square -> [name, code, has moved, promotions], from the start of the game
        # the mistake: seat.has_moved is never read (a rook without its right counts as unmoved)
        board = {seat.square: [seat.name, seat.code, False, 0] for seat in self.start_seats()}
        for entry in journal.entries:
            move = entry.move
            if move.rook is not None:  # castling: king and rook lifted together (in Chess960 either
                king = board.pop(move.origin)  # may land where the other stood)
                rook = board.pop(move.rook[0])
                king[2] = rook[2] = True
                board[move.target], board[move.rook[1]] = king, rook
                continue
            piece = board.pop(move.origin)
            board.pop(move.victim if move.victim >= 0 else move.target, None)  # whatever it takes
            piece[2] = True
            if move.promotion:
                piece[1] = (piece[1] & 8) | move.promotion  # same colour, the new kind
                piece[3] = 1
            board[move.target] = piece
        return {name: Resync(square, moved, code, promotions=promoted)
                for square, (name, code, moved, promoted) in board.items()}
