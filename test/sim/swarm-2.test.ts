import { swarm } from "./swarm.ts";

swarm(101, 200);
