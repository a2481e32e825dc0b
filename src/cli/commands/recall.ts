// Placeholder until the command lands; replaced by its owner.
import { EXIT, type CliIO } from "../io";

export async function main(io: CliIO): Promise<number> {
  io.stderr.write("acp-threads recall: not implemented yet\n");
  return EXIT.error;
}
